// Package golden pins, byte for byte apart from ids, times and durations, what the evalrun binary writes to the database and to its report files.
package golden
