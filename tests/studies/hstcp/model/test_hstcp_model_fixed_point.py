"""The model's fixed point over the paper's scenarios (model.fixed_point)."""

from __future__ import annotations

import itertools

import hstcp_reference as ref
import numpy as np
import pytest

from bufrepro.studies.hstcp.model import fixed_point as fp
from bufrepro.studies.hstcp.model import queues as qu
from bufrepro.studies.hstcp.model import response as rf

P = rf.DEFAULT_HSTCP
FRACTIONS = [0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.8, 1.0]


# ---------------------------------------------------------------- scenarios and fixed point


def test_scenarios() -> None:
    for sc, mean_rtt, lo, hi in (
        (fp.SCENARIO_1, 0.120, 0.1155, 0.1245),
        (fp.SCENARIO_2, 0.090, 0.038, 0.142),
    ):
        assert sc.n_flows == 10
        assert float(np.mean(sc.rtts_s)) == pytest.approx(mean_rtt)
        assert min(sc.rtts_s) == pytest.approx(lo)
        assert max(sc.rtts_s) == pytest.approx(hi)
    assert fp.SCENARIO_1.capacity_pps * 0.100 == pytest.approx(fp.SCENARIO_1.bdp_packets)
    assert fp.SCENARIO_2.capacity_pps * 0.020 == pytest.approx(fp.SCENARIO_2.bdp_packets)
    assert fp.buffer_packets_for(0.01, 6250) == 63
    assert fp.buffer_packets_for(1e-9, 6250) == 1


@pytest.mark.parametrize("queue", ["droptail", "red"])
def test_fixed_point_is_consistent(queue: fp.QueueKind) -> None:
    sc = fp.SCENARIO_1
    k = 1250
    res = fp.solve_fixed_point(sc, k, queue)
    assert res.converged and res.unique and res.warning is None
    assert len(res.roots) == 1
    # rho = sum_i lambda_i(p, R_i) / C with R_i = RTT_i + (MSS/C) E[n]
    assert sum(res.per_flow_rate_pps) / sc.capacity_pps == pytest.approx(res.offered_load, rel=1e-9)
    for rtt, r_eff, lam in zip(sc.rtts_s, res.effective_rtts_s, res.per_flow_rate_pps, strict=True):
        assert r_eff == pytest.approx(rtt + res.queueing_delay_s)
        assert lam == pytest.approx(rf.throughput(res.loss_prob, r_eff), rel=1e-9)
    if queue == "droptail":
        pi = ref.mm1k_distribution(res.offered_load, k)
        assert res.loss_prob == pytest.approx(float(pi[-1]), rel=1e-9)
        delay = float(np.dot(np.arange(k + 1), pi)) / sc.capacity_pps
        assert res.queueing_delay_s == pytest.approx(delay, rel=1e-9)
    else:
        min_th, max_th = qu.red_thresholds(sc.bdp_packets, k)
        d = qu.red_drop_curve(k, min_th, max_th)
        pi = ref.red_distribution(res.offered_load, d, thinned=True)
        assert res.loss_prob == pytest.approx(float(np.dot(pi, d)), rel=1e-9)
        assert res.utilisation == pytest.approx(1 - float(pi[0]), rel=1e-9)


@pytest.mark.parametrize("queue", ["droptail", "red"])
@pytest.mark.parametrize("scenario", [fp.SCENARIO_1, fp.SCENARIO_2], ids=["s1", "s2"])
def test_utilisation_grows_with_buffer(scenario: fp.Scenario, queue: fp.QueueKind) -> None:
    solved = [
        fp.solve_fixed_point(scenario, fp.buffer_packets_for(f, scenario.bdp_packets), queue)
        for f in FRACTIONS
    ]
    curve = [
        (f, r.utilisation, r.loss_prob, r.converged) for f, r in zip(FRACTIONS, solved, strict=True)
    ]
    utils = [row[1] for row in curve]
    assert all(row[3] for row in curve)
    assert all(0.0 < u <= 1.0 for u in utils)
    assert all(b >= a - 1e-12 for a, b in itertools.pairwise(utils))
    assert utils[-1] > utils[0]
    assert all(0.0 < row[2] < 1.0 for row in curve)


def test_root_scan_reports_multiple_roots_and_jumps() -> None:
    grid = np.linspace(0.0, 1.0, 97)
    roots, ok, warn = fp.find_roots_by_scan(lambda x: (x - 0.2) * (x - 0.55) * (x - 0.9), grid)
    assert ok and not warn
    assert roots == pytest.approx([0.2, 0.55, 0.9], abs=1e-12)
    roots, ok, warn = fp.find_roots_by_scan(lambda x: 1.0 if x < 0.3 else -1.0, grid)
    assert ok and len(roots) == 1 and roots[0] == pytest.approx(0.3, abs=1e-9)
    assert len(warn) == 1 and "jump" in warn[0]


def test_tiny_buffer_degrades_to_reno() -> None:
    res = fp.solve_fixed_point(fp.SCENARIO_1, 1)
    assert res.converged
    assert res.loss_prob > P.p_low  # Reno regime
    assert res.utilisation < 0.05


def test_red_fixed_point_converges() -> None:
    for sc in (fp.SCENARIO_1, fp.SCENARIO_2):
        for frac in (0.01, 0.1, 1.0, 2.0):
            k = fp.buffer_packets_for(frac, sc.bdp_packets)
            res = fp.solve_fixed_point(sc, k, "red")
            assert res.converged and res.unique, res.warning
            assert 0.0 < res.loss_prob < 1.0
            assert 0.0 < res.utilisation <= 1.0
    variant = qu.RedParams(gentle=False, state_dependent_arrivals=False)
    res = fp.solve_fixed_point(fp.SCENARIO_1, 1250, "red", red=variant)
    assert res.converged and res.unique


def test_scenario1_ten_percent_buffer(capsys: pytest.CaptureFixture[str]) -> None:
    res = fp.solve_fixed_point(fp.SCENARIO_1, fp.buffer_packets_for(0.1, 12500))
    assert res.converged
    with capsys.disabled():
        print(
            f"\n[hstcp_model] scenario 1, DropTail, buffer = 10% BDP ({res.buffer_packets} pkts): "
            f"utilisation = {res.utilisation:.4f}, p = {res.loss_prob:.3g} "
            "(paper: 'more than 90%')"
        )
