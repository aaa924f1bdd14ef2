// Package pipeline processes a finished conversation: it applies the
// reference's discard rules, asks an appliance.Extractor for structure, and
// normalises what comes back so the stored document always satisfies the
// contract (valid category, bounded event durations, non-nil lists).
//
// NewBuiltin gives the offline extractor Hearth uses when no language model
// is configured (appliance/pipeline/builtin): cheap, deterministic
// heuristics (keyword scoring, extractive summaries, a category lexicon)
// that stand in for the reference's LLM prompts; it needs no model files and
// structures a long transcript in well under a millisecond, so `make run`
// works on a fresh machine.
package pipeline
