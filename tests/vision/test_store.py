"""ImageStore, letterbox and encoding helpers."""

import base64
import io

import numpy as np
import pytest
from PIL import Image

from mmtsb_env.tools import NotFound
from mmtsb_env.vision import ImageStore, from_data_url, letterbox, png_bytes, to_data_url
from mmtsb_env.vision.store import PAD_COLOR


def test_ids_sources_and_rgb_conversion(make_quadrants):
    quadrants = make_quadrants
    rgba = Image.new("RGBA", (4, 4), (255, 0, 0, 0))  # fully transparent -> white
    store = ImageStore([quadrants(), Image.new("L", (5, 5), 7), rgba], sources=["a", "b", "c"])
    assert len(store) == 3 and store.ids() == [0, 1, 2]
    assert [store.get(i).mode for i in store.ids()] == ["RGB"] * 3
    assert store.get(2).getpixel((0, 0)) == (255, 255, 255)
    assert store.source(1) == "b"
    new = store.add(Image.new("P", (2, 2)), source="tool", note="x")
    assert new == 3 and store.source(3) == "tool" and store.note(3) == "x" and store.get(3).mode == "RGB"
    assert ImageStore([quadrants()]).source(0) == "scenario"


def test_add_copies_so_caller_edits_do_not_leak():
    img = Image.new("RGB", (3, 3), (1, 2, 3))
    store = ImageStore()
    i = store.add(img)
    img.putpixel((0, 0), (9, 9, 9))
    assert store.get(i).getpixel((0, 0)) == (1, 2, 3)


@pytest.mark.parametrize("bad, message", [
    (7, "image 7 does not exist; valid ids are 0-2"),
    (-1, "image -1 does not exist; valid ids are 0-2"),
    ("1", "image id must be an integer, got str '1'"),
    (1.0, "image id must be an integer, got float"),
    (True, "image id must be an integer, got bool"),
    (None, "image id must be an integer, got NoneType"),
])
def test_bad_ids_raise_not_found(store, bad, message):
    with pytest.raises(NotFound) as err:
        store.get(bad)
    assert message in str(err.value)
    with pytest.raises(NotFound):
        store.source(bad)


def test_empty_and_single_store_messages(make_quadrants):
    quadrants = make_quadrants
    with pytest.raises(NotFound, match="there are no images yet"):
        ImageStore().get(0)
    with pytest.raises(NotFound, match="the only valid id is 0"):
        ImageStore([quadrants()]).get(1)
    assert 0 in ImageStore([quadrants()]) and 1 not in ImageStore([quadrants()])


def test_sources_length_must_match(make_quadrants):
    quadrants = make_quadrants
    with pytest.raises(ValueError, match="2 images but 1 sources"):
        ImageStore([quadrants(), quadrants()], sources=["x"])


def test_fork_shares_images_but_not_future_ids(store):
    fork = store.fork()
    assert fork.get(0) is store.get(0)
    a = fork.add(Image.new("RGB", (1, 1)))
    assert a == 3 and len(store) == 3 and len(fork) == 4
    b = store.add(Image.new("RGB", (2, 2)))
    assert b == 3 and store.get(3).size == (2, 2) and fork.get(3).size == (1, 1)


def test_recipes_are_made_once_on_first_use_and_shared_by_forks():
    calls = []

    def make():
        calls.append(1)
        return Image.new("RGBA", (6, 4), (10, 20, 30, 255))

    store = ImageStore([make, Image.new("RGB", (2, 2))], sources=["render:receipt", "scenario"])
    fork = store.fork()
    assert not calls and not store.is_made(0) and store.is_made(1)
    image = fork.get(0)
    assert image.mode == "RGB" and image.size == (6, 4) and calls == [1]
    assert fork.is_made(0) and not store.is_made(0)  # the drawing is shared, each store marks what it drew
    assert store.get(0) is image and store.is_made(0) and calls == [1]
    assert store.nbytes() == 2 * 2 * 3 + 6 * 4 * 3  # the loaded image and the drawing it keeps


def test_keyed_images_share_fitted_pixels_and_png_across_stores():
    from mmtsb_env.vision import assets

    assets.clear()
    calls = []

    def make():
        calls.append(1)
        return Image.new("RGB", (40, 20), (200, 10, 10))

    a = ImageStore([make], keys=[("render", "red")])
    b = ImageStore([make], keys=[("render", "red")])
    fitted = a.fitted(0, 10, 10)
    assert fitted.shape == (5, 10, 3) and not fitted.flags.writeable and calls == [1]
    assert b.fitted(0, 10, 10) is fitted and not b.is_made(0) and calls == [1]
    assert a.data_url(0, 1024, 1024) == b.data_url(0, 1024, 1024)
    assert from_data_url(b.data_url(0, 10, 10)).size == (10, 5)
    assert from_data_url(b.data_url(0, 1024, 1024)).size == (40, 20)  # never enlarged
    assert ("render", "red") in assets.PIXELS and assets.PRODUCTS.nbytes >= fitted.nbytes


def test_a_failing_recipe_raises_every_time_and_keeps_the_store_usable():
    def broken():
        raise RuntimeError("cannot draw")

    store = ImageStore([broken, Image.new("RGB", (1, 1))])
    for _ in range(2):
        with pytest.raises(RuntimeError, match="cannot draw"):
            store.get(0)
    assert store.get(1).size == (1, 1) and not store.is_made(0)


@pytest.mark.parametrize("size, target", [((1024, 768), (448, 448)), ((300, 900), (224, 224)), ((50, 50), (64, 128)),
                                          ((2000, 100), (100, 300))])
def test_letterbox_keeps_aspect_and_centres(size, target):
    w, h = size
    img = Image.new("RGB", size, (200, 10, 10))
    th, tw = target
    out = letterbox(img, th, tw)
    assert out.shape == (th, tw, 3) and out.dtype == np.uint8
    content = np.all(out == (200, 10, 10), axis=2) | (np.abs(out.astype(int) - (200, 10, 10)).sum(2) < 30)
    ys, xs = np.nonzero(content)
    cw, ch = xs.max() - xs.min() + 1, ys.max() - ys.min() + 1
    assert abs(cw / ch - w / h) < 0.05 * (w / h) + 2 / min(cw, ch)  # aspect kept (within a pixel of rounding)
    assert cw == tw or ch == th  # fills one dimension
    # centred: equal padding on both sides (within one pixel)
    assert abs(xs.min() - (tw - 1 - xs.max())) <= 1 and abs(ys.min() - (th - 1 - ys.max())) <= 1
    pad = out[~content]
    if pad.size:
        assert (pad == PAD_COLOR).all()


def test_letterbox_exact_fit_and_bad_sizes(make_quadrants):
    quadrants = make_quadrants
    img = quadrants(200, 100)
    assert (letterbox(img, 100, 200) == np.asarray(img)).all()
    with pytest.raises(ValueError, match="positive integers"):
        letterbox(img, 0, 10)
    with pytest.raises(ValueError, match="positive integers"):
        letterbox(img, 10.5, 10)
    assert letterbox(Image.new("L", (10, 10)), 5, 5).shape == (5, 5, 3)


def test_data_url_round_trip_and_downscale(make_quadrants):
    quadrants = make_quadrants
    img = quadrants(400, 200)
    url = to_data_url(img)
    assert url.startswith("data:image/png;base64,")
    back = from_data_url(url)
    assert back.size == img.size and (np.asarray(back.convert("RGB")) == np.asarray(img)).all()
    small = from_data_url(to_data_url(img, max_side=100))
    assert small.size == (100, 50)
    raw = base64.b64decode(url.split(",", 1)[1])
    assert raw == png_bytes(img)
    assert Image.open(io.BytesIO(png_bytes(img))).format == "PNG"
    with pytest.raises(ValueError):
        from_data_url("http://example.com/x.png")


def test_store_data_url(store):
    assert from_data_url(store.data_url(0, 50, 50)).size == (50, 25)


def test_store_data_url_is_memoised_and_forked(store):
    url = store.data_url(0)
    assert store.data_url(0) is url and store.data_url(0, 64, 64) is not url
    fork = store.fork()
    assert fork.data_url(0) is url


def test_concurrent_adds_get_distinct_ids():
    import threading

    store = ImageStore()
    ids, lock = [], threading.Lock()

    def work(k):
        for _ in range(20):
            i = store.add(Image.new("RGB", (1, 1), (k, 0, 0)))
            with lock:
                ids.append((i, k))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(i for i, _ in ids) == list(range(100))
    assert all(store.get(i).getpixel((0, 0))[0] == k for i, k in ids)


def test_data_url_encodes_the_fitted_pixels_byte_for_byte(make_quadrants, monkeypatch):
    """The URL of an image that must shrink is encoded from the fitted pixels the observation
    shows (one resize, shared); its bytes are exactly those of shrinking and encoding it directly."""
    from mmtsb_env.vision import assets
    from mmtsb_env.vision.store import shrink

    assets.clear()
    photo = make_quadrants(400, 300)
    noisy = Image.fromarray(np.random.default_rng(3).integers(0, 256, (257, 311, 3), dtype=np.uint8))
    for keys in (None, [("render", "q"), ("render", "n"), ("render", "rgba")]):
        store = ImageStore([photo, noisy, Image.new("RGBA", (30, 20), (9, 80, 200, 128))], keys=keys)
        for image_id in store.ids():
            for height, width in ((336, 336), (100, 300), (1024, 1024), (20, 30)):
                direct = png_bytes(shrink(store.get(image_id), height, width))
                assert base64.b64decode(store.data_url(image_id, height, width).split(",", 1)[1]) == direct
    from mmtsb_env.vision import store as store_mod

    resizes = []
    real_fit = store_mod.fit
    monkeypatch.setattr(store_mod, "fit", lambda *a: resizes.append(a[1:]) or real_fit(*a))
    keyed = ImageStore([photo], keys=[("render", "q2")])
    fitted = keyed.fitted(0, 120, 120)
    assert (np.asarray(from_data_url(keyed.data_url(0, 120, 120))) == fitted).all()
    assert resizes == [(120, 120)]  # the observation's resize, not a second one for the URL


def test_drawn_recipes_are_not_pinned_past_the_stores_drawing_cache(monkeypatch):
    """Reading many large derived images keeps at most DRAWN_CACHE_BYTES of them alive in the store."""
    import gc
    import weakref

    from mmtsb_env.vision import assets

    assets.clear()
    monkeypatch.setattr(assets.PIXELS, "max_bytes", 0)  # the shared cache keeps nothing: only the store could
    monkeypatch.setattr(ImageStore, "DRAWN_CACHE_BYTES", 3 * 300 * 300 * 3)
    store = ImageStore([lambda: Image.new("RGB", (50, 50), (9, 9, 9))], keys=[("render", "pin-test")])
    alive = []
    for i in range(12):
        big = store.derive(0, "resize", (300, 300 - i), lambda im, i=i: im.resize((300, 300 - i)), size=(300, 300 - i))
        alive.append(weakref.ref(store.get(big)))
    gc.collect()
    assert sum(r() is not None for r in alive) <= 3
    assert store.nbytes() <= ImageStore.DRAWN_CACHE_BYTES
    assert store.tool_bytes() == sum(300 * (300 - i) * 3 for i in range(12))  # every made pixel is counted


def test_an_episode_store_refuses_tool_images_past_its_byte_cap():
    from mmtsb_env.tools.errors import InvalidArgument

    store = ImageStore([lambda: Image.new("RGB", (50, 50))], keys=[("render", "cap-test")])
    side = 4096
    fits = ImageStore.MAX_TOOL_IMAGE_BYTES // (side * side * 3)
    for _ in range(fits):
        store.derive(0, "resize", (side, side), lambda im: im.resize((side, side)), size=(side, side))
    with pytest.raises(InvalidArgument, match=r"over the cap of 256 MB .*make smaller images"):
        store.derive(0, "resize", (side, side - 1), lambda im: im.resize((side, side - 1)), size=(side, side - 1))
    with pytest.raises(InvalidArgument, match="over the cap"):
        store.add(Image.new("RGB", (4096, 2048)))
    assert len(store) == 1 + fits and store.tool_bytes() <= ImageStore.MAX_TOOL_IMAGE_BYTES
    small = store.add(Image.new("RGB", (8, 8)))  # what still fits is made
    assert store.get(small).size == (8, 8)
