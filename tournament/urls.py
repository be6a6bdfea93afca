from django.urls import path

from tournament.views import public, students
from tournament.views.api import check_in_event, my_tables
from tournament.views.bracket import bracket, bracket_fragment
from tournament.views.certificates import my_certificate
from tournament.views.live_tables import next_table, tournament_game
from tournament.views.reader import me
from tournament.views.results import results
from tournament.views.watch import watch_list, watch_list_fragment

urlpatterns = [
    path("", public.home, name="home"),
    path("api/my-tables/", my_tables, name="api_my_tables"),
    path("api/events/<slug:slug>/check-in/", check_in_event, name="api_check_in"),
    path("me.json", me, name="me_json"),
    path("events/", public.event_list, name="event_list"),
    path("leaderboards/", public.leaderboards, name="leaderboards"),
    path("events/<slug:slug>/", public.event_detail, name="event_detail"),
    path("events/<slug:slug>/leaderboard/", public.leaderboard, name="leaderboard"),
    path("events/<slug:slug>/rounds/<int:number>/leaderboard/", public.leaderboard, name="round_leaderboard"),
    path("events/<slug:slug>/rounds/<int:number>/bracket/", bracket, name="bracket"),
    path("events/<slug:slug>/rounds/<int:number>/bracket/fragment/", bracket_fragment, name="bracket_fragment"),
    path("events/<slug:slug>/results/", results, name="results"),
    path("events/<slug:slug>/tables/<int:table_id>/", public.table_detail, name="table_detail"),
    path("events/<slug:slug>/watch/", watch_list, name="watch"),
    path("events/<slug:slug>/watch/list/", watch_list_fragment, name="watch_fragment"),
    path("events/<slug:slug>/players/<int:player_id>/", public.player_detail, name="player_detail"),
    path("events/<slug:slug>/register/", students.register, name="register"),
    path("events/<slug:slug>/me/", students.my_event, name="my_event"),
    path("events/<slug:slug>/me/certificate.pdf", my_certificate, name="my_certificate"),
    path("events/<slug:slug>/check-in/", students.check_in_view, name="check_in"),
    path("events/<slug:slug>/withdraw/", students.withdraw_view, name="withdraw"),
    # Beside the live-match pages (games.urls, under /play/), but the tournament's.
    path("play/games/<int:game_id>/", tournament_game, name="play_tournament_game"),
    path("play/tables/<str:live_game_id>/next/", next_table, name="next_block"),
]
