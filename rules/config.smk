# The validated configuration (defaults filled in): the whole, for the report, and per study,
# for that study's jobs (so that changing one study's settings reruns only its jobs).


rule write_config:
    output:
        "results/config.validated.yaml",
    log:
        "results/logs/write_config.log",
    # First among the ready jobs: the progress line (bufrepro.pipeline.progress) waits for this
    # file, and at the default priority Snakemake wrote it after most of the quick profile's runs.
    priority: 100
    localrule: True
    params:
        text=yaml.safe_dump(CFG, sort_keys=True),
    run:
        Path(output[0]).write_text(params.text)
        Path(log[0]).write_text(f"wrote {output[0]}\n")


rule write_study_config:
    output:
        "results/{study}/config.yaml",
    log:
        "results/{study}/logs/write_study_config.log",
    localrule: True
    params:
        text=lambda w: yaml.safe_dump(owner_config(w.study), sort_keys=True),
    run:
        Path(output[0]).write_text(params.text)
        Path(log[0]).write_text(f"wrote {output[0]}\n")
