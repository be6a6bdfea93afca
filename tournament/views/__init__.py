"""Views of the tournament site, one module per kind of page (public pages, a student's own pages, the
bracket, ...). The package itself imports none of them, so that a module outside it can use one (the
scoreboard read model, say) without loading every view."""
