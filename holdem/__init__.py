"""The game itself: cards, rules, tables and seats, per-seat views, hand histories.

Pure and I/O-free. The betting state machine of a single hand is pokerkit's;
`holdem.hand.Hand` wraps it, `holdem.table.Table` runs hands across time and
`holdem.views.observe` decides what each seat may see.
"""
