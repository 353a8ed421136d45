// Package proc keeps agent processes from outliving their case: process
// groups, a child subreaper, tagged environments and a guardian process
// that kills tagged agents when evalrun itself is killed.
package proc
