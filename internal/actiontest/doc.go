// Package actiontest tests the repository's GitHub Action (action.yml and
// the scripts in action/) by running its steps' scripts locally.
package actiontest
