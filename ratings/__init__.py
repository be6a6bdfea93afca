"""Ratings across events and practice: a consumer of finished live games (`games`) and of the tournament's
finished games, seats and scores (`tournament`). It imports both; neither imports it (the tournament's leaderboard template loads its
template tags by name only)."""
