# The validated configuration (defaults filled in) that the analysis and report steps read.


rule write_config:
    output:
        "results/config.validated.yaml",
    log:
        "results/logs/write_config.log",
    params:
        text=yaml.safe_dump(CFG, sort_keys=True),
    run:
        Path(output[0]).write_text(params.text)
        Path(log[0]).write_text(f"wrote {output[0]}\n")
