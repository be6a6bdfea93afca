"""Load harness for live play: real websockets against the real site, compared with a bare relay.

Run it from the repository's root:

    python -m bench.live --tables 10 --seats 4 --seconds 15 --workers 2
    python -m bench.live --tables 250 --seats 4 --spectators 250 --think 2 --seconds 60 --workers 2

Creates a running event with T tables of P seats held by real users (the ORM and the live-game service
`tournament.services.live_tables.live_game_for`, turn timer off, a high target so no game ends), logs every
user in (a session per user in the database), starts the site (uvicorn `--workers N`, or N daphne
processes on one shared socket, with `bench/live_settings.py`: the relay mounted and the per-socket rate
limit lifted) plus `manage.py run_sweeper` for the next-hand deals, as production runs them, then:

1. **game**: one websocket client per seat (and `--spectators` watchers spread over the tables) plays
   through the protocol of docs/protocol.md: the seat with something to do sends a legal action (a
   random play if it has one) with the version it last saw, after `--think` seconds; with `--think`
   each table starts at its own random moment within the first think period, as people at different
   tables do (`--in-step` starts them all at once, a burst of T moves every think period);
2. **relay**: the same clients against `bench/relay.py` (ack + numbered group update, no rules, no
   database), seats moving in turn.

In both phases every socket pings every `--ping` seconds (20, as the table page does; 0: never).
`--proxy spread|table` puts nginx (Debian's) in front of one uvicorn process per worker: sockets spread
over the workers in turn, or every socket of a table routed to one worker by a hash of its path.

Printed per phase: moves/s, p50/p95/p99 of the mover's send→ack time and of send→every other socket of
the table has that version, errors, frame sizes, the pongs' p99, the CPU and memory of the server processes (from
/proc; local PostgreSQL and Redis too) and of the harness itself. With both phases, the game's ratios to the relay: moves/s,
the workers' CPU per stored move and their memory per socket. After the game phase it checks that
the database's player moves are exactly the acknowledged ones (none lost, none doubled), that every
socket saw every version once and in order, and that no socket received a card its seat did not own.
Exit status 1 if a check fails. `BENCH_GC_LOG=1` makes the server log every garbage collection over
5 ms (bench/live_settings.py).

DATABASE_URL / REDIS_URL come from the environment, as for the site (without REDIS_URL use one
worker: the in-memory layer is per process). `--url` targets a site that is already running instead:
then the relay phase needs `BENCH_RELAY=1` there, and the rate limit there applies (use `--think`).

The parts: `tables` (the event and the database checks, Django), `clients` (the websocket clients and a
phase), `server` (the site's processes), `processes` (CPU and memory from /proc), `report` (the printed
figures), `run` (the command line).
"""

from bench.live.clients import PASSIVE, Client, Stats, TableClock, run_phase
from bench.live.run import main
from bench.live.server import Site
from bench.live.tables import Table, check_database, create_tables, django_setup
from games.hidden_cards import private_codes

__all__ = ["PASSIVE", "Client", "Site", "Stats", "Table", "TableClock", "check_database", "create_tables",
           "django_setup", "main", "private_codes", "run_phase"]
