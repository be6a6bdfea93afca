"""Services of the live-match layer: the one move path, game lifecycle, timers and bots, hand results."""
