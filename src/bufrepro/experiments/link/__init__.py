"""The link experiment: a user's own bottleneck, its queues and buffer searched (advise)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from bufrepro.experiments.link import declarations, guards, ns3, parsed
from bufrepro.experiments.link.declarations import red_threshold
from bufrepro.experiments.link.parsed import Setup
from bufrepro.experiments.link.tables import CCS, backend_of, cc_problem, queue_problem
from bufrepro.kit import prose, units
from bufrepro.kit.declaration import Declaration
from bufrepro.kit.experiment import Experiment, Price
from bufrepro.kit.study import Block

# Mathis et al.'s constant in W = K / sqrt(p): sqrt(3/2) for a receiver that ACKs every packet,
# as ns-2's one-way sinks do (the loss-target rule of Dhamdhere et al. uses it).
MATHIS_K = math.sqrt(1.5)
# Each AQM's delay target: its assumption in ns3.yaml (RFC 8289, RFC 8290: 5 ms; RFC 8033: 15 ms).
AQM_TARGETS = MappingProxyType(
    {"CoDel": "codel_target_ms", "FQ-CoDel": "codel_target_ms", "PIE": "pie_target_ms"}
)
# The queue the AQMs are compared with on ns3, added when not asked for.
BASELINE = "DropTail"
# What "buffer" means under each queue, in words (words.yaml beside this module).
WORDS = Path(__file__).with_name("words.yaml")


class LinkExperiment(Experiment[Setup]):
    """Long-lived TCP flows (and optionally web and CBR traffic) through one bottleneck."""

    kind = "link"
    title = "An experiment on your own link: which buffer, at what delay"
    required = (
        "throughput_mbps",
        "link_utilisation",
        "goodput_mbps",
        "jain_index",
        "qdelay_ms_mean",
        "qdelay_ms_p95",
        "qdelay_ms_p99",
        "queue_loss_rate",
        "link_loss_rate",
        "total_loss_rate",
    )

    def backend_for(self, block: Block) -> str:
        """ns2, or ns3 when asked or when a queue asked for is on ns3 only (tables.backend_of)."""
        return backend_of(block)

    def check(self, where: str, block: Block) -> list[str]:
        """Units, enums and orders the schema cannot see, each naming its key."""
        backend = self.backend_for(block)  # checked before any Resolved holds it
        problems = [
            p for q in block["queues"] if (p := queue_problem(str(q), backend, f"{where}.queues"))
        ]
        # Each quantity on its own first, so that every bad one is named at once.
        link_, flows, targets = block["link"], block["flows"], block["targets"]
        elsewhere = cc_problem(str(flows["cc"]), backend, f"{where}.flows.cc")
        if elsewhere:
            return [*problems, elsewhere]
        one_by_one: list[Callable[[], object]] = [
            lambda: units.rate_bps(str(link_["rate"]), f"{where}.link.rate"),
            lambda: units.seconds(str(link_["rtt"]), f"{where}.link.rtt"),
            lambda: units.fraction(link_["loss"], f"{where}.link.loss", what="a loss rate"),
            lambda: units.choice(str(flows["cc"]), CCS[backend], f"{where}.flows.cc"),
            lambda: units.seconds(str(flows["start_jitter"]), f"{where}.flows.start_jitter", True),
            lambda: units.fraction(
                targets["within"], f"{where}.targets.within", what="the utilisation margin"
            ),
        ]
        if targets["max_delay"]:
            one_by_one.append(
                lambda: units.seconds(str(targets["max_delay"]), f"{where}.targets.max_delay")
            )
        if targets["max_loss"] != "":
            one_by_one.append(
                lambda: units.fraction(
                    targets["max_loss"], f"{where}.targets.max_loss", what="a loss rate"
                )
            )
        for quantity in one_by_one:
            try:
                quantity()
            except units.UnitError as err:
                problems.append(str(err))
        if problems:
            return problems
        try:
            link = parsed.read(block, where)
            for key in ("min_th", "max_th"):
                red_threshold(block["red"][key], link.buffer_hi, f"{where}.red.{key}")
        except units.UnitError as err:
            return [str(err)]
        if link.spread_bottleneck_s <= 0:
            problems.append(
                f"{where}.flows.rtt_spread: {link.rtt_spread:g} leaves the bottleneck no delay "
                f"with access_share {block['link']['access_share']}; allowed: a smaller spread"
            )
        if link.warmup_s >= link.duration_s:
            problems.append(f"{where}.run: the warm-up is not shorter than the run")
        if link.ecn and not any(str(q) in ns3.ECN_QUEUES for q in block["queues"]):
            asked = ", ".join(map(str, block["queues"]))
            problems.append(
                f"{where}.aqm.ecn: true with queues {asked}; allowed: ECN with an AQM that marks "
                f"({', '.join(ns3.MARKING)}, on ns3); DropTail and RED drop, they never mark"
            )
        if link.backend == "ns3":
            problems += ns3.problems(where, link, block)
        try:
            problems += guards.budget_problems(
                self.cost(block), str(block["budget"]["cpu"]), str(block["budget"]["memory"]), where
            )
        except units.UnitError as err:
            problems.append(str(err))
        return problems

    def setup(self, block: Block) -> Setup:
        """The block with its Link (rates, delays, buffers and flows in SI units)."""
        return Setup(block, parsed.read(block, "link"))

    def cost(self, block: Block) -> guards.Cost:
        """The runs' estimated packets, CPU and one run's memory (before any run)."""
        setup = self.setup(block)
        link = setup.link
        # At most: under buffers.second_set near_knee the second seed set skips the first
        # pass's buffers below the knee's lower neighbour.
        per_queue = int(block["buffers"]["coarse"]) + int(block["buffers"]["refine"])
        runs = len(self.series(setup)) * per_queue * len(block["seeds"])
        in_flight = min(link.flows * link.window_pkts, link.bdp_pkts + link.buffer_hi)
        return guards.estimate(
            link.bps,
            link.packet_bytes,
            link.duration_s,
            link.duration_s - link.warmup_s,
            in_flight,
            link.flows,
            runs,
            link.backend,
        )

    def price(self, block: Block) -> Price:
        """The guard's cost model (guards.estimate): at most this many runs and CPU seconds."""
        made = self.cost(block)
        return Price(made.runs, made.cpu_s)

    def series(self, setup: Setup) -> list[str]:
        """The queues, in the order given; with an AQM on ns3, DropTail on ns3 too (the
        baseline the AQMs are judged against, on the same simulator)."""
        queues = [str(q) for q in setup.block["queues"]]
        return [*queues, BASELINE] if self._needs_baseline(setup) else queues

    def _needs_baseline(self, setup: Setup) -> bool:
        queues = [str(q) for q in setup.block["queues"]]
        aqm = any(q in AQM_TARGETS for q in queues)
        return aqm and setup.link.backend == "ns3" and BASELINE not in queues

    def axis_range(self, setup: Setup) -> tuple[int, int]:
        """The buffers searched, in packets."""
        return setup.link.buffer_lo, setup.link.buffer_hi

    def describe(self, setup: Setup) -> dict[str, Any]:
        """The link's derived numbers, as the answer prints them."""
        link = setup.link
        return {
            "rate_mbps": link.bps / 1e6,
            "rtt_ms": link.rtt_s * 1000,
            "hops": parsed.hops_text(link),
            "loss": link.loss,
            "flows": link.flows,
            "cc": link.cc.label,
            "packet_bytes": link.packet_bytes,
            "bdp_pkts": link.bdp_pkts,
            "window_pkts": link.window_pkts,
            "window_auto": link.window_auto,
            "warmup_s": link.warmup_s,
            "duration_s": link.duration_s,
            "ms_per_pkt": link.packet_bytes * 8 / link.bps * 1000,
            "cbr_mbps": link.cbr_bps / 1e6,
            "web_rate": link.web_rate,
            "simulator": link.backend,
            "assumptions": [
                {"name": k, "value": v["value"], "reason": v["reason"]}
                for k, v in ns3.assumptions().items()
            ]
            if link.backend == "ns3"
            else [],
            **self._words(setup),
            "note_words": prose.load(WORDS)["notes"],
            "aqm_targets": {q: self._targets(setup)[k] for q, k in AQM_TARGETS.items()},
            "min_epochs": guards.MIN_EPOCHS,
            "rtt_spread": link.rtt_spread,
            "baseline_queue": BASELINE if self._needs_baseline(setup) else "",
            "ecn": link.ecn,
            "ecn_queues": list(ns3.ECN_QUEUES),
        }

    def _targets(self, setup: Setup) -> dict[str, float]:
        """The AQMs' delay targets (ms) the runs get (aqm.targets: rfc or scaled)."""
        return ns3.targets(setup.link, str(setup.block["aqm"]["targets"]))

    def _words(self, setup: Setup) -> dict[str, Any]:
        """What the buffer means under each AQM asked for, and the note on the rules of thumb."""
        words = prose.load(WORDS)
        link = setup.link
        values = {
            **{k: v["value"] for k, v in ns3.assumptions().items()},
            **self._targets(setup),
            "ecn": "on" if setup.block["aqm"]["ecn"] else "off",
        }
        aqms = [str(q) for q in setup.block["queues"] if str(q) in words["aqm"]]
        cc_note = words["cc_notes"].get(link.cc_name, "")
        return {
            "rules_note": prose.fill(words["rules_note"]) if aqms else "",
            "cc_note": prose.fill(cc_note, simulator=link.backend, label=link.cc.label),
            "queue_notes": {
                q: prose.fill(
                    words["buffer_meaning"], queue=q, aqm=prose.fill(words["aqm"][q], **values)
                )
                for q in aqms
            },
        }

    def rules(self, setup: Setup) -> list[dict[str, Any]]:
        """BDP, BDP/sqrt(n), the loss-target rule (with a loss target), Spang et al. (CUBIC)."""
        block, link = setup.block, setup.link
        bdp, n = link.bdp_pkts, link.flows
        out = [
            {"rule": "BDP", "pkts": bdp, "source": "Villamizar & Song 1994"},
            {
                "rule": "BDP/sqrt(n)",
                "pkts": bdp / math.sqrt(n),
                "source": "Appenzeller et al. 2004",
            },
        ]
        target = block["targets"]["max_loss"]
        if target:
            p = units.fraction(target, "targets.max_loss")
            if p > 0:
                need = max(0.0, n * MATHIS_K / math.sqrt(p) - bdp)
                out.append(
                    {"rule": f"loss<={p:.3g}", "pkts": need, "source": "Dhamdhere et al. 2005"}
                )
        if link.cc_name == "cubic" and link.cc.beta:
            beta = link.cc.beta
            value = (1 - beta) / beta * bdp / math.sqrt(n)
            out.append(
                {"rule": "CUBIC (1-b)/b BDP/sqrt(n)", "pkts": value, "source": "Spang et al. 2021"}
            )
        return out

    def declarations(self) -> Mapping[str, Declaration[Setup]]:
        """ns-2's template (Debian's ns) and ns-3's program (declarations.py)."""
        return declarations.DECLARATIONS


KIND = LinkExperiment()
