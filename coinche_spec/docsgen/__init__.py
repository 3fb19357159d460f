"""Rules pages: a rule set written out for players, with its sources and worked examples.

``render_page(variant)`` gives the Markdown page; ``templates`` holds the
sentence of every rule; ``examples`` scores the worked examples with the
engine; ``cli`` is the ``coinche-spec docs`` command. The page module is
imported on first use, so building the command line stays light.
"""


def __getattr__(name):
    if name == "render_page":
        from .page import render_page
        return render_page
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
