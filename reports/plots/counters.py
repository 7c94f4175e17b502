"""The counters a result entry may carry, for the Python tools: `gcbench --counters-python`,
from the one table in src/results/counters.cpp (a test keeps the two equal). Each
constant is a counter's name; docs/counters.md says its unit, cells and meaning.
"""

INPUT_BYTES = "input_bytes"  # bytes
COMPRESSED_BYTES = "compressed_bytes"  # bytes
RATIO = "ratio"  # ratio
ENTROPY_BYTES = "entropy_bytes"  # bytes
INPUT_ELEMENT_WIDTH = "input_element_width"  # bytes
VERIFIED = "verified"  # 0/1
VARIED_OUTPUTS = "varied_outputs"  # count
SAMPLES = "samples"  # count
SAMPLED_S = "sampled_s"  # s
ERROR_PCT = "error_pct"  # %
MAX_ERROR_PCT = "max_error_pct"  # %
NOISE_PCT = "noise_pct"  # %
CPU_SHARE = "cpu_share"  # ratio
BUSY = "busy"  # 0/1
KERNEL_S = "kernel_s"  # s
KERNEL_GBPS = "kernel_gbps"  # GB/s
PCT_COPY = "pct_copy"  # %
TRANSFER_S = "transfer_s"  # s
E2E_S = "e2e_s"  # s
E2E_GBPS = "e2e_gbps"  # GB/s
E2E_PAGEABLE_S = "e2e_pageable_s"  # s
E2E_PAGEABLE_GBPS = "e2e_pageable_gbps"  # GB/s
E2E_TIMED_S = "e2e_timed_s"  # s
PCT_H2D = "pct_h2d"  # %
PIPELINE_CHUNK_BYTES = "pipeline_chunk_bytes"  # bytes
PIPELINE_DEPTH = "pipeline_depth"  # chunks
PRIMITIVE_S = "primitive_s"  # s
PRIMITIVE_GBPS = "primitive_gbps"  # GB/s
COLD_L2 = "cold_l2"  # 0/1
SM_CLOCK_PCT = "sm_clock_pct"  # %
THROTTLED = "throttled"  # 0/1
MEMORY_HOST_BYTES = "memory_host_bytes"  # bytes
MEMORY_DEVICE_BYTES = "memory_device_bytes"  # bytes
PEAK_RSS_BYTES = "peak_rss_bytes"  # bytes
