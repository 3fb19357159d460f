"""What a rule change does at the table: ``coinche-spec compare A B [C ...]``.

Three views of the same question: the rules that differ in words
(``docsgen.differences.worded_differences``, where the house pages and
``variants diff`` find theirs too), the corpus scenarios whose hand-derived outcomes
differ (``outcomes``), and the same deals played by the simple players under
each rule set (``deals`` gives the hands, ``simulate`` plays them, ``stats``
puts a 95 % interval on every figure); ``render`` writes text, JSON or HTML.
"""
