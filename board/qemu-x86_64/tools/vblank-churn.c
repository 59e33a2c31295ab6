/* vblank-churn SECONDS: waits for one vblank, sleeps 15-25 ms, again, for
 * SECONDS, then prints "done N waits". Each wait takes a vblank reference
 * and drops it at the vblank; with drm.vblankoffdelay=16 the kernel then
 * turns vblank off about one frame later, so over many waits the turning
 * off meets every phase of the driver's vblank timer (the kms-vblank-off
 * scenario). */
#include <drm.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: vblank-churn SECONDS\n");
        return 2;
    }
    int fd = open("/dev/dri/card0", O_RDWR);
    if (fd < 0) {
        perror("vblank-churn: /dev/dri/card0");
        return 1;
    }
    srand(getpid());
    time_t end = time(NULL) + atoi(argv[1]);
    long waits = 0;
    while (time(NULL) < end) {
        union drm_wait_vblank vblank;
        memset(&vblank, 0, sizeof vblank);
        vblank.request.type = _DRM_VBLANK_RELATIVE;
        vblank.request.sequence = 1;
        if (ioctl(fd, DRM_IOCTL_WAIT_VBLANK, &vblank) != 0) {
            perror("vblank-churn: DRM_IOCTL_WAIT_VBLANK");
            return 1;
        }
        waits++;
        usleep(15000 + rand() % 10000);
    }
    printf("done %ld waits\n", waits);
    return 0;
}
