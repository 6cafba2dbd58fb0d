"""The pipeline's stages, called by the workflow's rules: plan, run, aggregate, compare, report."""
