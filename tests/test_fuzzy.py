"""fuzzy<n> and fuzzy<-1> with the real all-MiniLM-L6-v2 model, and its laziness."""

from __future__ import annotations

import multiprocessing
import pickle
import subprocess
import sys
import textwrap

import gymnasium as gym
import pytest
from screens import N, button, checkpoint, component_index, dump, state

from mobile_gym.matcher import Matcher, SentenceEmbedder, evaluate_trace
from mobile_gym.matcher.annotation import Annotation
from mobile_gym.trace import Trace

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def embedder() -> SentenceEmbedder:
    return SentenceEmbedder()


@pytest.fixture(scope="module")
def matcher(embedder) -> Matcher:
    return Matcher(embedder=embedder)


def search_screen(query: str) -> str:
    return dump(
        N("android.widget.EditText", query, "com.android.vending:id/search_bar_text", bounds=(150, 100, 900, 200),
          flags={"clickable": True, "focusable": True}),
        N(text="Apps", bounds=(40, 300, 300, 380)),
        package="com.android.vending",
    )


def test_fuzzy_textbox_matches_a_semantically_similar_query(matcher):
    ref = state(search_screen("microsoft excel"), "com.android.vending/com.google.android.finsky.activities.MainActivity")
    box = component_index(ref, text="microsoft excel")
    cp = checkpoint(ref, f"fuzzy<{box}>")
    assert matcher.check(cp, state(search_screen("excel"))).matched
    result = matcher.check(cp, state(search_screen("weather")))
    assert not result.matched
    assert "similarity" in result.results[0].detail


def shop_screen(prices) -> str:
    items = []
    names = ["Sony WH-1000XM5 Headphones", "Apple AirPods Pro (2nd generation)", "JBL Flip 6 Speaker"]
    for i, (name, price) in enumerate(zip(names, prices)):
        top = 400 + 420 * i
        items.append(N("android.widget.LinearLayout", bounds=(0, top, 1080, top + 400), flags={"clickable": True}, children=[
            N("android.widget.ImageView", rid="com.bestbuy.android:id/product_image", bounds=(40, top + 20, 300, top + 280)),
            N(text=name, rid="com.bestbuy.android:id/product_name", bounds=(320, top + 20, 1040, top + 120)),
            N(text=price, rid="com.bestbuy.android:id/product_price", bounds=(320, top + 140, 700, top + 200)),
            N(text="4.7 (1,203 reviews)", rid="com.bestbuy.android:id/rating", bounds=(320, top + 220, 800, top + 270)),
        ]))
    return dump(
        N("android.widget.EditText", "headphones", "com.bestbuy.android:id/search", bounds=(40, 100, 1040, 200),
          flags={"clickable": True}),
        N("androidx.recyclerview.widget.RecyclerView", bounds=(0, 380, 1080, 2200), flags={"scrollable": True},
          children=items),
        button("Add to Cart", (40, 2220, 1040, 2320), rid="com.bestbuy.android:id/add_to_cart"),
        package="com.bestbuy.android",
    )


def settings_screen() -> str:
    rows = ["Network & internet", "Connected devices", "Apps", "Notifications", "Battery", "Storage", "Sound & vibration"]
    return dump(
        N(text="Settings", bounds=(40, 100, 600, 200)),
        N("androidx.recyclerview.widget.RecyclerView", bounds=(0, 250, 1080, 2300), flags={"scrollable": True}, children=[
            N("android.widget.LinearLayout", bounds=(0, 250 + 200 * i, 1080, 440 + 200 * i), flags={"clickable": True},
              children=[N(text=row, rid="android:id/title", bounds=(150, 270 + 200 * i, 900, 340 + 200 * i)),
                        N(text="Wi-Fi, mobile, data usage" if i == 0 else "", rid="android:id/summary",
                          bounds=(150, 350 + 200 * i, 900, 420 + 200 * i))])
            for i, row in enumerate(rows)
        ]),
        package="com.android.settings",
    )


def test_screen_level_fuzzy_tolerates_dynamic_prices_but_not_another_screen(matcher):
    ref = state(shop_screen(["$349.99", "$249.00", "$129.99"]))
    cp = checkpoint(ref, "fuzzy<-1>")
    changed = matcher.check(cp, state(shop_screen(["$329.99", "$199.99", "$99.99"])))
    assert changed.matched, changed.results
    other = matcher.check(cp, state(settings_screen()))
    assert not other.matched
    assert other.results[0].score < matcher.config.screen_threshold


def test_each_text_is_encoded_once(matcher, embedder):
    ref = state(search_screen("microsoft excel"))
    annotation = Annotation([checkpoint(ref, f"fuzzy<{component_index(ref, text='microsoft excel')}>")])
    trace = Trace.from_states([state(search_screen("word processor")), state(search_screen("excel sheets"))])
    evaluate_trace(annotation, trace, matcher)
    before = embedder.encoded
    evaluate_trace(annotation, trace, matcher)
    evaluate_trace(annotation, Trace.from_states([state(search_screen("excel sheets"))]), Matcher(embedder=embedder))
    assert embedder.encoded == before


def test_import_and_exact_only_evaluation_do_not_import_torch():
    code = textwrap.dedent(
        """
        import sys
        sys.path.insert(0, %r)
        from screens import N, checkpoint, dump, state
        from mobile_gym.matcher import Annotation, Matcher, evaluate_trace
        from mobile_gym.trace import Trace
        ref = state(dump(N(text="Done", bounds=(0, 0, 100, 100))))
        annotation = Annotation([checkpoint(ref, "activity<0>|exact<0>")])
        result = evaluate_trace(annotation, Trace.from_states([ref]), Matcher())
        assert result.success
        print(sorted(m for m in ("torch", "sentence_transformers", "transformers") if m in sys.modules))
        """
    ) % str(__import__("pathlib").Path(__file__).parent)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("how", ["make", "unpickle"])
def test_an_env_whose_task_has_fuzzy_checks_loads_the_model_before_any_step(how, tmp_path):
    """In a fresh interpreter (as a user's script or a spawned worker): an env without
    fuzzy checks never imports torch; one with them has the model loaded once it is made
    or unpickled, so no step waits 5-10 s for it."""
    fuzzy = "LlamaTouch/clock-trace-tokyo-time-v0"  # fuzzy<n>
    (tmp_path / "env.pkl").write_bytes(pickle.dumps(gym.make(fuzzy)))
    code = textwrap.dedent(
        f"""
        import pickle, sys
        import gymnasium as gym
        import mobile_gym
        from mobile_gym.actions import Action
        from mobile_gym.matcher import shared_embedder
        env = gym.make("LlamaTouch/settings-turn-off-wifi-v0")  # no fuzzy check
        env.reset(seed=0)
        env.step(Action.back())
        print("torch" in sys.modules)
        if {how!r} == "make":
            env = gym.make({fuzzy!r})
        else:
            env = pickle.loads(open({str(tmp_path / "env.pkl")!r}, "rb").read())
        print(shared_embedder().loaded)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "True"]


def test_warm_up_loads_the_model_every_env_shares():
    from mobile_gym.env import shared_matcher, warm_up

    warm_up()
    assert shared_matcher().embedder.loaded


def test_the_text_cache_keeps_the_texts_used_last(embedder):
    embedder.max_cached, default = 3, embedder.max_cached
    try:
        embedder.clear_cache()
        for text in ["wifi", "bluetooth", "airplane mode", "battery"]:
            embedder.embed([text])
        assert embedder.cached == 3
        before = embedder.encoded
        embedder.embed(["battery", "airplane mode"])  # kept
        assert embedder.encoded == before
        embedder.embed(["wifi"])  # dropped first: encoded again
        assert embedder.encoded == before + 1 and embedder.cached == 3
    finally:
        embedder.max_cached = default


def _embed_in_child(embedder, queue):
    queue.put(embedder.embed(["a text only the child encodes"]).shape)


@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")  # Python >= 3.12
def test_a_forked_worker_encodes_after_its_parent_did(embedder):
    """Vector envs and runner workers fork from a process that may have encoded already;
    torch's threads do not survive the fork, and the child must not wait for them."""
    embedder.embed(["the parent encodes first"])
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_embed_in_child, args=(embedder, queue), daemon=True)
    child.start()
    child.join(timeout=300)  # a hang, not a speed: encoding one text takes well under a second
    hung = child.is_alive()
    if hung:
        child.kill()
    assert not hung and child.exitcode == 0 and queue.get(timeout=5) == (1, 384)
