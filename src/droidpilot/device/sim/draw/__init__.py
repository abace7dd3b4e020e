"""How SimPhone looks: layout of screens and widgets into draw ops and uiautomator nodes, and the renderer.

Also fonts, glyphs (with ``material_glyphs.yaml``), palettes, procedural pictures and the PNG encoder.
"""
