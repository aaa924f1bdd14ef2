// Package builtin is the offline extractor: deterministic heuristics that
// stand in for the reference's LLM prompts (titles by keyword scoring,
// extractive overviews, a category lexicon, action items and dated events
// read from the user's turns, memories from what they state about
// themselves). The pipeline (appliance/pipeline) decides when to ask it and
// normalises what it gives; this package only reads transcripts.
package builtin
