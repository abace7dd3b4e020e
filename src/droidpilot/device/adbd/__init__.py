"""The ADB front of SimPhone: an adb *server* on loopback, so stock adb clients and adbutils drive it."""
