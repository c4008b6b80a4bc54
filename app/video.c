/* Video through ffmpeg (fork/exec, no shell, so paths need no quoting): raw rgb24 frames on its
 * standard input; libx264 with yuv420p for MP4 (what browsers and players take), or GIF through
 * palettegen/paletteuse, which picks 256 colours for the clip instead of a fixed web palette. */
#include "video.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct video {
	FILE* pipe;
	pid_t pid;
	size_t frame_bytes;
	char path[4096], tmp[4200];
	void (*old_sigpipe)(int);
};

bool video_ffmpeg_available(void)
{
	const char* path = getenv("PATH");
	if (!path) return false;
	char dir[4096];
	while (*path) {
		size_t n = strcspn(path, ":");
		if (n > 0 && n < sizeof dir - 16) {
			memcpy(dir, path, n);
			snprintf(dir + n, sizeof dir - n, "/ffmpeg");
			struct stat st;
			if (stat(dir, &st) == 0 && S_ISREG(st.st_mode) && access(dir, X_OK) == 0) return true;
		}
		path += n + (path[n] == ':');
	}
	return false;
}

video* video_open(const char* path, video_format format, int width, int height, double fps, char* err, size_t err_size)
{
	video* v = calloc(1, sizeof *v);
	if (!v) {
		snprintf(err, err_size, "out of memory starting ffmpeg");
		return NULL;
	}
	snprintf(v->path, sizeof v->path, "%s", path);
	snprintf(v->tmp, sizeof v->tmp, "%s.tmp", path);
	v->frame_bytes = 3 * (size_t)width * (size_t)height;
	char size[64], rate[64];
	snprintf(size, sizeof size, "%dx%d", width, height);
	snprintf(rate, sizeof rate, "%.6g", fps);
	/* yuv420p needs even sizes: crop a last odd row or column away. */
	const char* args_mp4[] = {"ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt",
				  "rgb24", "-s", size, "-r", rate, "-i", "-", "-vf", "crop=trunc(iw/2)*2:trunc(ih/2)*2",
				  "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "20", "-movflags", "+faststart", "-f", "mp4",
				  v->tmp, NULL};
	const char* args_gif[] = {"ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt",
				  "rgb24", "-s", size, "-r", rate, "-i", "-", "-filter_complex",
				  "[0:v]split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=bayer:bayer_scale=3",
				  "-f", "gif", v->tmp, NULL};
	const char** args = format == VIDEO_GIF ? args_gif : args_mp4;
	int fd[2];
	if (pipe(fd) != 0) {
		snprintf(err, err_size, "cannot start ffmpeg: %s", strerror(errno));
		free(v);
		return NULL;
	}
	fflush(NULL);
	v->pid = fork();
	if (v->pid < 0) {
		snprintf(err, err_size, "cannot start ffmpeg: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		free(v);
		return NULL;
	}
	if (v->pid == 0) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		execvp("ffmpeg", (char* const*)args);
		_exit(127);
	}
	close(fd[0]);
	v->pipe = fdopen(fd[1], "w");
	if (!v->pipe) {
		close(fd[1]);
		waitpid(v->pid, NULL, 0);
		snprintf(err, err_size, "cannot start ffmpeg: %s", strerror(errno));
		free(v);
		return NULL;
	}
	/* If ffmpeg dies, writes fail with EPIPE instead of killing drape. */
	v->old_sigpipe = signal(SIGPIPE, SIG_IGN);
	return v;
}

bool video_write(video* v, const uint8_t* rgb, char* err, size_t err_size)
{
	if (fwrite(rgb, 1, v->frame_bytes, v->pipe) == v->frame_bytes) return true;
	snprintf(err, err_size, "ffmpeg stopped taking frames for '%s' (see its message above)", v->path);
	return false;
}

bool video_close(video* v, bool keep, char* err, size_t err_size)
{
	bool ok = fclose(v->pipe) == 0;
	int status = 0;
	while (waitpid(v->pid, &status, 0) < 0 && errno == EINTR) {
	}
	signal(SIGPIPE, v->old_sigpipe);
	bool exited = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (keep && !exited) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			snprintf(err, err_size, "ffmpeg could not be run, so '%s' was not made", v->path);
		else
			snprintf(err, err_size, "ffmpeg failed making '%s' (exit status %d; see its message above)", v->path,
				 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		ok = false;
	} else if (keep && !ok) {
		snprintf(err, err_size, "could not finish the frame stream to ffmpeg for '%s'", v->path);
	}
	if (keep && ok && rename(v->tmp, v->path) != 0) {
		snprintf(err, err_size, "cannot write '%s': %s", v->path, strerror(errno));
		ok = false;
	}
	if (!keep || !ok) remove(v->tmp);
	free(v);
	return keep && ok;
}
