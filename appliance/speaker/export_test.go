package speaker

// SetLabelRule sets the label-level owner decision's line for a
// measurement (promote 0: the per-segment rule alone) and returns what
// puts it back.
func SetLabelRule(promote float64, minSegs int, minSecs float64) (restore func()) {
	p, n, s := labelPromote, labelMinSegs, labelMinSecs
	labelPromote, labelMinSegs, labelMinSecs = promote, minSegs, minSecs
	return func() { labelPromote, labelMinSegs, labelMinSecs = p, n, s }
}
