# The ns-3 backend: its scenario programs (ns3/*.cc), built once against Debian's libns3-dev by
# ns3/build.sh, which reuses a build whose record names the same sources, flags and library.


rule build_ns3:
    input:
        sources=sorted(glob.glob("ns3/*.cc") + glob.glob("ns3/*.h")),
        script="ns3/build.sh",
    output:
        record=backends.get("ns3", CFG).requires({})[0],
    log:
        "results/logs/build_ns3.log",
    localrule: True
    params:
        prefix=lambda w, output: str(Path(output.record).parent),
    shell:
        "bash {input.script} {params.prefix} > {log} 2>&1"
