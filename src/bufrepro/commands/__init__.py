"""The `bufrepro` command's verbs: one module per verb or family, gathered in `table`."""
