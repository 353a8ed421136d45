// Command bench measures reading a collector's file export into cases against decoding it with pdata alone: spans per second of CPU time on one core, and each reading's peak memory (its own process, so the peaks do not mix).
//
//	go run ./tracefile/bench -traces 250000
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/tracefile"
	"github.com/agentevals-go/agentevals/tracefile/internal/synth"
)

// result is one reading's figures.
type result struct {
	Mode       string  `json:"mode"`
	Spans      int     `json:"spans"`
	Cases      int     `json:"cases"`
	WallS      float64 `json:"wall_s"`
	CPUS       float64 `json:"cpu_s"`
	PeakRSSMB  float64 `json:"peak_rss_mb"`
	HeapSysMB  float64 `json:"heap_sys_mb"`
	SpansPerS  float64 `json:"spans_per_cpu_s"`
	WallSpansS float64 `json:"spans_per_wall_s"`
}

func main() {
	traces := flag.Int("traces", 250000, "agent invocations to simulate (4 spans each)")
	proto := flag.Bool("proto", false, "write length-prefixed protobuf instead of JSON lines")
	mode := flag.String("mode", "", "internal: read the file in one mode (pdata or cases)")
	file := flag.String("file", "", "internal: the export to read")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the cases reading")
	memProfile := flag.String("memprofile", "", "write an allocation profile of the cases reading")
	flag.Parse()
	if *mode != "" {
		r, err := measure(*mode, *file, *profile, *memProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		_ = json.NewEncoder(os.Stdout).Encode(r)
		return
	}
	if err := run(*traces, *proto, *profile, *memProfile); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run writes the export, then reads it in a child process per mode.
func run(traces int, proto bool, profile, memProfile string) error {
	dir, err := os.MkdirTemp("", "tracefile-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "traces.export")
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	spans, err := synth.Write(f, synth.Spec{Traces: traces, Concurrent: 64, Batch: 512, Proto: proto, Seed: 1})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	st, _ := os.Stat(path)
	fmt.Printf("export: %d spans, %d traces, %.0f MB (%s)\n", spans, traces, float64(st.Size())/1e6, map[bool]string{false: "JSON lines", true: "proto"}[proto])
	for _, gc := range []string{"", "GOGC=off GOMEMLIMIT=150MiB"} {
		fmt.Printf("garbage collector: %s\n", map[bool]string{true: "default (GOGC=100)", false: gc}[gc == ""])
		if err := compare(path, profile, memProfile, strings.Fields(gc)); err != nil {
			return err
		}
	}
	return nil
}

// compare reads the file with pdata alone, then into cases, each in a
// process of its own on one core.
func compare(path, profile, memProfile string, env []string) error {
	var results []result
	for _, mode := range []string{"pdata", "cases"} {
		args := []string{"-mode", mode, "-file", path}
		if mode == "cases" && profile != "" {
			args = append(args, "-cpuprofile", profile)
		}
		if mode == "cases" && memProfile != "" {
			args = append(args, "-memprofile", memProfile)
		}
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(append(os.Environ(), "GOMAXPROCS=1"), env...)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("%s: %w", mode, err)
		}
		var r result
		if err := json.Unmarshal(out, &r); err != nil {
			return fmt.Errorf("%s: %w", mode, err)
		}
		results = append(results, r)
		fmt.Printf("%-6s %9d spans %7d cases  cpu %6.2f s  wall %6.2f s  %8.0f spans/cpu-s  %8.0f spans/wall-s  peak RSS %6.1f MB  heap sys %6.1f MB\n",
			r.Mode, r.Spans, r.Cases, r.CPUS, r.WallS, r.SpansPerS, r.WallSpansS, r.PeakRSSMB, r.HeapSysMB)
	}
	fmt.Printf("cases/pdata: %.2f× the CPU time, %.2f× the peak RSS\n", results[1].CPUS/results[0].CPUS, results[1].PeakRSSMB/results[0].PeakRSSMB)
	return nil
}

// measure reads the file once in mode on this process.
func measure(mode, path, profile, memProfile string) (result, error) {
	if profile != "" {
		pf, err := os.Create(profile)
		if err != nil {
			return result{}, err
		}
		defer pf.Close()
		if err := pprof.StartCPUProfile(pf); err != nil {
			return result{}, err
		}
		defer pprof.StopCPUProfile()
	}
	start, cpu0 := time.Now(), cpuTime()
	r := result{Mode: mode}
	var err error
	switch mode {
	case "pdata":
		r.Spans, err = decodeOnly(path)
	case "cases":
		r.Spans, r.Cases, err = readCases(path)
	default:
		err = fmt.Errorf("mode %q: want pdata or cases", mode)
	}
	if err != nil {
		return r, err
	}
	r.WallS, r.CPUS = time.Since(start).Seconds(), (cpuTime() - cpu0).Seconds()
	r.SpansPerS, r.WallSpansS = float64(r.Spans)/r.CPUS, float64(r.Spans)/r.WallS
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	r.HeapSysMB = float64(ms.HeapSys) / (1 << 20)
	r.PeakRSSMB = peakRSS()
	if memProfile != "" {
		mf, err := os.Create(memProfile)
		if err != nil {
			return r, err
		}
		defer mf.Close()
		if err := pprof.Lookup("allocs").WriteTo(mf, 0); err != nil {
			return r, err
		}
	}
	return r, nil
}

func readCases(path string) (spans, cases int, err error) {
	rd, err := tracefile.Open(path, tracefile.Options{})
	if err != nil {
		return 0, 0, err
	}
	defer rd.Close()
	for {
		_, err := rd.Next()
		if errors.Is(err, io.EOF) {
			st := rd.Stats()
			return st.Spans, st.Cases, nil
		}
		if err != nil {
			return 0, 0, err
		}
	}
}

// decodeOnly unmarshals every record with pdata and counts the spans.
func decodeOnly(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	head, _ := br.Peek(1)
	n := 0
	if len(head) == 1 && head[0] == '{' {
		sc := bufio.NewScanner(br)
		sc.Buffer(make([]byte, 0, 1<<20), 32<<20)
		for sc.Scan() {
			td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(sc.Bytes())
			if err != nil {
				return n, err
			}
			n += td.SpanCount()
		}
		return n, sc.Err()
	}
	var size [4]byte
	var buf []byte
	for {
		if _, err := io.ReadFull(br, size[:]); err == io.EOF {
			return n, nil
		} else if err != nil {
			return n, err
		}
		buf = append(buf[:0], make([]byte, binary.BigEndian.Uint32(size[:]))...)
		if _, err := io.ReadFull(br, buf); err != nil {
			return n, err
		}
		td, err := (&ptrace.ProtoUnmarshaler{}).UnmarshalTraces(buf)
		if err != nil {
			return n, err
		}
		n += td.SpanCount()
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSS is the process's peak resident set (VmHWM) in MB.
func peakRSS() float64 {
	data, err := bounds.ReadFile("/proc/self/status", 1<<20)
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return -1
}
