"""Screens measured: text density (OCR lines) and layout variety, SimPhone's next to real phones'."""
