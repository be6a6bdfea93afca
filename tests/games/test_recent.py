"""`Recent` (games/services/recent.py): the live layer's per-process caches keep the newest items stored."""

from games.services.recent import Recent


def test_the_oldest_stored_item_goes_first_and_storing_again_makes_an_item_the_newest():
    recent = Recent(3)
    for key in "abc":
        recent.put(key, key.upper())
    recent.put("a", "A2")  # stored again: now the newest
    recent.put("d", "D")  # one too many: the oldest stored ("b") goes
    assert [recent.get(k) for k in "abcd"] == ["A2", None, "C", "D"] and len(recent) == 3
    assert recent.get("b", "gone") == "gone"
    assert recent.pop("c") == "C" and recent.pop("c") is None
    recent.clear()
    assert len(recent) == 0


def test_it_stays_at_its_size_through_many_stores():
    recent = Recent(100)
    for n in range(10_000):
        recent.put((n % 7, n), n)
    assert len(recent) == 100 and recent.get((9_999 % 7, 9_999)) == 9_999 and recent.get((0, 0)) is None


def test_the_bench_times_both_caches_at_the_live_layers_sizes(capsys):
    """bench/recent_cache.py runs and prints a store and a read time for each cache and size."""
    from bench import recent_cache

    rows = recent_cache.main()
    assert {(name, size) for name, size, _, _ in rows} == {
        (name, size) for name in ("Recent", "plain dict") for size in recent_cache.SIZES}
    assert all(store > 0 and read > 0 for _, _, store, read in rows)
    assert capsys.readouterr().out.count("items: store") == len(rows)
