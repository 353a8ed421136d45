package gatesim

import "math/rand/v2"

// NineDropped is the true drop of each question in trial t of the
// nine-question scenario: nine of the suite's questions, chosen afresh in
// each trial anywhere in the suite (on a stream seeded by t), drop by 0.4.
func NineDropped(t, questions int) func(i int) float64 {
	hit := map[int]bool{}
	for _, i := range rand.New(rand.NewPCG(uint64(t), 9)).Perm(questions)[:9] {
		hit[i] = true
	}
	return func(i int) float64 {
		if hit[i] {
			return 0.4
		}
		return 0
	}
}

// SliceDropped is the true drop of each question in trial t of the
// one-slice scenario: the questions of slice t mod (questions/size) (the
// suite's slices of size consecutive questions) drop by 0.3.
func SliceDropped(t, questions, size int) func(i int) float64 {
	k := t % (questions / size)
	return func(i int) float64 {
		if i/size == k {
			return 0.3
		}
		return 0
	}
}
