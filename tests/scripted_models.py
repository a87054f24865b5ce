"""Scripted "models" for tests of the language-model side: regular expressions over the
screen text pick the next reply, in a different grammar at each step of a task."""

from __future__ import annotations

import re

RULES = {
    "settings-turn-off-wifi": [
        (r"<checkbox id=(\d+) checked=true>ON</checkbox>", '{{"action_type": "click", "index": {}}}'),
        (r"<button id=(\d+)>Internet<br>", "- id={} - action=tap - input_text=N/A"),
        (r"<button id=(\d+)>Network &amp; internet", "Action: tap({})"),
        (r"<button id=(\d+)>Settings</button>", '```json\n{{"action": "tap", "element": {}}}\n```'),
    ],
    "bestbuy-empty-cart": [
        (r"<button id=(\d+)>Remove ", "The first item's Remove button. tap({})"),
        (r"<button id=(\d+)>Cart, ", "tap({})"),
        (r"<input id=(\d+) focused>bestbuy\.com</input>", "enter()"),
        (r"<input id=(\d+)[^>]*>Search or type web address", 'type({}, "bestbuy.com")'),
        (r"<button id=(\d+)>No thanks</button>", "- id={} - action=tap - input_text=N/A"),
        (r"<button id=(\d+)>Chrome</button>", "tap({})"),
    ],
}


def scripted_reply(task: str, text: str) -> str:
    for pattern, reply in RULES[task]:
        m = re.search(pattern, text)
        if m:
            return reply.format(m.group(1))
    return "I am lost. back()"
