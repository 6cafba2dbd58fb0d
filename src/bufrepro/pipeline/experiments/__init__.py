"""The experiment stages: plan and run a search stage, refine it, answer from the runs."""
