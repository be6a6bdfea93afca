"""Pure generators: no Django, no I/O. Plain ids and numbers in, plain data out, tested without a database.

- ``seating``: a first round's tables (sizes, spreading players, bots to fill);
- ``partners``: the partner rotation schedule of a table of four or eight;
- ``brackets``: a bracket round's shape (stages, byes, seating a stage in snake order);
- ``cuts``: who goes on from a table (ranking by format, the cut, ties, seeded draws).

The services (``tournament.services``) load and save around them, as Tabbycat's ``draw/generator/`` sits
behind its draw manager.
"""
