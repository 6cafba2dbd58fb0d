# The ns-2 backend's own rule: the patched ns-2.35 (ns2/build.sh, ns2/patches/) for the studies
# whose backend options ask for it, built once and cached under backends.ns2.prefix; a build whose
# version file matches the patches is reused (seconds). Their runs depend on the build's record.

NS2_PREFIX = CFG["backends"]["ns2"]["prefix"] or str(BASE / ".ns2")


rule build_ns2:
    input:
        script="ns2/build.sh",
        patches=sorted(
            str(p.relative_to(BASE))
            for p in (BASE / "ns2" / "patches").glob("*.patch")
        ),
    output:
        "results/ns2/ns-patched.json",
    log:
        "results/logs/build_ns2.log",
    priority: 50
    localrule: True
    threads: 2
    params:
        prefix=NS2_PREFIX,
        script=BASE / "scripts" / "build_ns2.sh",
    shell:
        "BUFREPRO_NS2_JOBS={threads} bash {params.script} {params.prefix} {output} > {log} 2>&1"
