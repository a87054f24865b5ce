"""Google Play Store (com.android.vending).

Home with Games / Apps / Offers / Books and the "For you" / "Top charts" / "Kids" /
"Categories" tabs, search with suggestions and results, app detail pages that install,
open and uninstall store apps, the account menu, "Manage apps & device", the Library and
Settings. The real store is one activity (`MainActivity`) whose pages are fragments, so
every page here is an `Activity` with that one name, pushed on the app's back stack.

Installs are immediate (deterministic): "Install" calls `sys.install` and the same page
shows "Uninstall" / "Open" on the next frame. Uninstalling asks first, as the store does.

Modules: `model` (listings, options, state), `widgets` (shared views, `Page`), `home`,
`search`, `pages` (details, lists, info), `account` (manage apps, library), `settings`,
`store` (the `App`).
"""

from mobile_gym.simulator.apps.playstore.model import PlayStoreState
from mobile_gym.simulator.apps.playstore.store import PlayStore

__all__ = ["PlayStore", "PlayStoreState"]
