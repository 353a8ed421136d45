package proc

import (
	"os"
	"syscall"
)

// Pipe is os.Pipe for a child's stream: only evalrun's end, the read end
// when parentReads and else the write end, is non-blocking and registered
// with the runtime poller (so it takes deadlines and a Close ends a read
// in progress); the child's end stays blocking, as exec wants it. os.Pipe
// makes both ends non-blocking and registers both, and exec then sets the
// child's end blocking again, which closing it after the start removes
// from epoll: two epoll_ctl and two fcntl calls per stream for nothing.
// Both ends are close-on-exec; exec dups the child's end into place.
func Pipe(parentReads bool) (parent, child *os.File, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	pfd, cfd := p[1], p[0]
	if parentReads {
		pfd, cfd = p[0], p[1]
	}
	if err := syscall.SetNonblock(pfd, true); err != nil {
		_ = syscall.Close(p[0])
		_ = syscall.Close(p[1])
		return nil, nil, os.NewSyscallError("setnonblock", err)
	}
	return os.NewFile(uintptr(pfd), "|1"), os.NewFile(uintptr(cfd), "|0"), nil
}

// pipeBuf is PIPE_BUF: a pipe, even one the kernel gave a single page
// because the user's pipe buffers are over their soft limit, takes this
// much into an empty buffer without blocking.
const pipeBuf = 4096

// FilledPipe returns the read end of a pipe that already holds input and
// whose write end is closed, for a child's stdin: when input is at most
// PIPE_BUF bytes the write into the new, empty pipe cannot block, so it
// needs no goroutine and evalrun's end is never registered with the
// poller. ok is false (and nothing is made) for a longer input. The read
// end is blocking and close-on-exec, as exec wants it.
func FilledPipe(input []byte) (r *os.File, ok bool, err error) {
	if len(input) > pipeBuf {
		return nil, false, nil
	}
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, false, os.NewSyscallError("pipe2", err)
	}
	for len(input) > 0 {
		n, err := syscall.Write(p[1], input)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			_ = syscall.Close(p[0])
			_ = syscall.Close(p[1])
			return nil, false, os.NewSyscallError("write", err)
		}
		input = input[n:]
	}
	_ = syscall.Close(p[1])
	return os.NewFile(uintptr(p[0]), "|0"), true, nil
}
