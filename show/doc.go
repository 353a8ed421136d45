// Package show writes scores, counts and JSON values as people read them:
// in reports, on the terminal and on the dashboard.
package show
