"""bufrepro: reproduction pipeline for router-buffer-sizing studies."""
