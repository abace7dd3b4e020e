"""SimPhone's uiautomator server: the JSON-RPC API of the `uiautomator2` client's on-phone server, answered
from SimPhone's UI tree (the nodes and bounds of `uiautomator dump`) and reached through the ADB front."""
