// Linux event-loop primitives that Swift's Glibc module does not export: epoll and eventfd.
#include <sys/epoll.h>
#include <sys/eventfd.h>
