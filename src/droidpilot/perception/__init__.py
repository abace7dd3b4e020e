"""Perception: OCR, text localization and icon localization on screenshots."""
