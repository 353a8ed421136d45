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
