"""What a rule change does at the table: ``coinche-spec compare A B [C ...]``.

Three views of the same question, each in its own module: the rules that
differ in words (``rules``), the corpus scenarios whose hand-derived outcomes
differ (``outcomes``), and the same deals played by the simple players under
each rule set (``deals`` gives the hands, ``simulate`` plays them, ``stats``
puts a 95 % interval on every figure); ``render`` writes text, JSON or HTML.
"""
