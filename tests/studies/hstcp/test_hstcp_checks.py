"""Config problems the schema cannot see, each naming its key (checks.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bufrepro.pipeline import configuration
from conftest import merged


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"grid": {"scenario": ["s9"]}}, "is not defined under hstcp.scenarios"),
        ({"measure": {"sample_s": 20}}, "byte counters need fewer than 2\\^31"),
        ({"tcp": {"start_jitter_s": 12}}, "every flow must start before"),
        ({"scenarios": {"s1": {"rtt_min_ms": 90}}}, "must exceed"),
        ({"twoflow": {"warmup_s": 100}}, "twoflow.warmup_s"),
        ({"measure": {"warmup_s": 40}}, "hstcp.measure.warmup_s: 40 must be below"),
        ({"red": {"min_th_frac": 1.0}}, "hstcp.red.min_th_frac: must be below red.max_th_frac"),
        ({"topology": {"access_ratio": 0.1}}, "hstcp.topology.access_ratio: 0.1 x 10 flows"),
        ({"band": {"scenario": ["s7"]}}, "hstcp.band.scenario: 's7' is not defined"),
        ({"band": {"access_ratio": [0.05, 1]}}, "hstcp.band.access_ratio: 0.05 x 10 flows"),
        ({"tcp": {"pacing": "sometimes"}}, "hstcp.tcp.pacing"),
    ],
)
def test_semantic_checks_name_the_key(override: dict[str, Any], message: str) -> None:
    with pytest.raises(configuration.ConfigError, match=message):
        configuration.validate(merged({"hstcp": override}))
