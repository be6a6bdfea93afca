"""Views of the tournament site: public pages (``public``) and the student's own pages (``students``)."""

from tournament.views.public import (
    event_detail,
    event_list,
    home,
    leaderboard,
    leaderboards,
    player_detail,
    table_detail,
)
from tournament.views.students import check_in_view, my_event, register, signup, withdraw_view

__all__ = [
    "check_in_view",
    "event_detail",
    "event_list",
    "home",
    "leaderboard",
    "leaderboards",
    "my_event",
    "player_detail",
    "register",
    "signup",
    "table_detail",
    "withdraw_view",
]
