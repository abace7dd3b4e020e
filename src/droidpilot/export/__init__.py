"""Training data out: recorded traces (bench runs, studio recordings, gym rollouts) in the formats people
fine-tune phone agents on (``episodes`` reads them, ``formats`` writes AndroidControl-style episodes,
Qwen2.5-VL ``mobile_use`` conversations and ShareGPT multimodal JSONL)."""
