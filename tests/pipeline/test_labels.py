"""Every key a summary or verdict shows has words: each space's parameters and metrics."""

from __future__ import annotations

import pytest

from bufrepro import registry
from bufrepro.kit import configs
from bufrepro.pipeline import labels
from bufrepro.pipeline.readings import space
from conftest import REPO


@pytest.mark.parametrize("study", space.studies_with_space(registry.names()))
def test_every_parameter_and_metric_of_a_space_has_a_label(study: str) -> None:
    declared = configs.read_yaml(REPO / "config" / "readings" / f"{study}.yaml")[study]
    unlabelled = [k for k in declared["parameters"] if labels.parameter(study, k) == k]
    unlabelled += [m for m in declared["metrics"] if labels.metric(study, m) == m]
    assert not unlabelled, f"add to src/bufrepro/studies/{study}/labels.yaml: {unlabelled}"


def test_a_setting_reads_as_its_value_with_units() -> None:
    values = {"tcp.max_rwnd_pkts": 64, "tcp.syn": True, "measure.warmup_s": 2.0, "x.y": "a"}
    assert [labels.setting("dumbbell", k, v) for k, v in values.items()] == [
        "receive window 64 packets",
        "SYN packet on",
        "warm-up 2 s",
        "x.y = a",
    ]
