"""Who asks for a page: a browser that will run it, or a client that never will.

Every page visit starts a kernel and renders the page's notebook (seconds of CPU), and holds
one of the few render turns until the page's websocket connects (:mod:`payme.app.budget`).
A crawler, a link preview or a script fetching the URL never runs the page: before this module a
few plain GETs a minute made a real visitor wait several times longer for the first control
(figures: docs/benchmarks.md, *Measurements behind the code*).  So a page is rendered only for a
browser:

* a **known crawler or link preview** (its ``User-Agent``, :data:`CRAWLERS`) gets the static
  landing page, with the app's description and links, and no kernel;
* a request **without a browser's navigation headers** (``Sec-Fetch-Mode: navigate``, sent
  by Chromium since 2019, Firefox since 2021, Safari since 2023) and without the cookie
  :data:`JS_COOKIE` gets the same page plus a small script: in a browser that runs it, it sets
  the cookie and loads the page again, which is then rendered (one extra round trip, only for
  browsers too old to send those headers); a client that runs no script stops there;
* every other request is rendered, under the budget; should its browser then never speak
  (no question from ``connection.js``, no websocket), the page's render turn and its kernel
  are given back within seconds (``--PaymeVoila.first_contact_s``, :mod:`payme.app.budget`).

>>> is_crawler("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
True
>>> will_run_page({"User-Agent": "curl/8.5.0"}, cookies={})
False
>>> will_run_page({"Sec-Fetch-Mode": "navigate", "User-Agent": "Mozilla/5.0"}, cookies={})
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
# Set by the shell page's script: this browser runs scripts, so render its pages.
JS_COOKIE = "payme_js"
# User-Agent words of crawlers and link previews (search engines, social networks, chat apps,
# SEO tools, feed readers, archives, headless fetchers that say what they are).
CRAWLERS = re.compile(
    r"bot\b|bot/|crawl|spider|slurp|preview|facebookexternalhit|facebookcatalog|embedly|"
    r"vkshare|quora link|whatsapp|telegram|skypeuripreview|discord|slack|bitly|"
    r"pinterest|redditbot|linkedin|mastodon|lighthouse|archive\.org|"
    r"ia_archiver|feedfetcher|google-read-aloud|yandex|baidu|bingpreview|duckduckgo|"
    r"semrush|ahrefs|mj12|petalbot|bytespider|gptbot|ccbot|claudebot|perplexity|"
    r"python-requests|python-urllib|aiohttp|go-http-client|curl/|wget/|httpie|okhttp|"
    r"java/|libwww|scrapy|node-fetch|axios",
    re.IGNORECASE,
)
# The browsers' navigation of a top-level page (or a frame).
NAVIGATION_MODES = frozenset({"navigate", "nested-navigate"})


def is_crawler(user_agent: str | None) -> bool:
    """Whether a ``User-Agent`` names a crawler, link preview or HTTP library.

    >>> is_crawler("Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)")
    True
    >>> is_crawler("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36")
    False
    """
    return bool(user_agent) and CRAWLERS.search(user_agent or "") is not None


def will_run_page(headers: Mapping[str, str], cookies: Mapping[str, object]) -> bool:
    """Whether a page request comes from a browser that will run the page: not a crawler,
    and either a browser's navigation headers or the cookie of a browser that ran the shell
    page's script."""
    if is_crawler(headers.get("User-Agent")):
        return False
    if JS_COOKIE in cookies:
        return True
    return headers.get("Sec-Fetch-Mode", "").lower() in NAVIGATION_MODES


# Loads the page again, now as a browser that runs scripts; once only per tab, so a browser
# that keeps no cookies is left on the landing page instead of reloading for ever.
_RELOAD = (
    "<script>(function(){try{var k='payme-shell-reloaded';"
    "if(sessionStorage.getItem(k)===location.href)return;"
    "sessionStorage.setItem(k,location.href);}catch(e){return;}"
    "document.cookie='" + JS_COOKIE + "=1; path=/; max-age=31536000; SameSite=Lax';"
    "location.replace(location.href);})();</script>"
)


def shell_page(base_url: str, reload: bool) -> bytes:
    """The static landing page (``static/index.html``) served at a page's URL: its relative
    links resolved from ``base_url`` (the server's root), and with ``reload`` the script that
    loads the page again in a browser that runs scripts."""
    text = (STATIC / "index.html").read_text(encoding="utf-8")
    head = f'<base href="{_attribute(base_url)}">' + ('<meta name="robots" content="noindex">')
    if reload:
        head += _RELOAD
    return text.replace("<head>", "<head>\n" + head, 1).encode("utf-8")


def _attribute(text: str) -> str:
    import html

    return html.escape(text, quote=True)
