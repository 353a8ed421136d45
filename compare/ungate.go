package compare

// Ungate makes every finding about a metric of why non-gating, with the
// metric's reason as its why: a judge metric that failed its calibration
// is still reported, but no longer decides the gate. A nil map changes
// nothing.
func (c *Comparison) Ungate(why map[string]string) {
	if c == nil || len(why) == 0 {
		return
	}
	for i, f := range c.Findings {
		if reason, ok := why[f.Metric]; ok && f.Metric != "" {
			c.Findings[i].Gating = false
			c.Findings[i].Why = reason
		}
	}
}
