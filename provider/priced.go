package provider

import "github.com/agentevals-go/agentevals/llm"

// Priced reports whether the judge's calls have a known price (the price
// catalog under the user's price file), so that their cost can be counted;
// it returns the judge's settings, to name the model when they do not.
func (j *Judge) Priced() (llm.Settings, bool) {
	s := j.client.Settings()
	_, ok := callCost(s, j.client.prices, 1000, 1000)
	return s, ok
}
