"""The Folder pane's widgets: each a small subclass of a Textual widget.

Import from the submodules; this package stays empty so importing one widget
does not import the others.
"""
