// Linux event-loop primitives that Swift's Glibc module does not export: epoll and eventfd.
#include <sys/epoll.h>
#include <sys/eventfd.h>

// libdispatch's hooks for a run loop that serves the main queue, as CoreFoundation's CFRunLoop
// does on Linux (swift-corelibs-libdispatch, private/queue_private.h): an eventfd that becomes
// readable when work is queued on the main queue (the main actor's jobs among it), and the call
// that runs that work on the calling (main) thread.
int _dispatch_get_main_queue_handle_4CF(void);
void _dispatch_main_queue_callback_4CF(void *_Nullable message);

#include <sys/syscall.h>
#include <unistd.h>

// Whether the calling thread is the process's first thread (its thread id is the process id).
static inline int linux_events_is_main_thread(void) { return syscall(SYS_gettid) == getpid(); }
