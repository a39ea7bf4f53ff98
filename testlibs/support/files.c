/* Small file helpers of the tests.  */
#include "files.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
copy_into_fd (const char *from, int fd)
{
  char buf[65536];
  ssize_t len;
  int in = open (from, O_RDONLY | O_CLOEXEC);
  if (in < 0)
    {
      printf ("# open %s: %m\n", from);
      return -1;
    }
  while ((len = read (in, buf, sizeof buf)) > 0)
    if (write (fd, buf, len) != len)
      {
        printf ("# copying %s: %m\n", from);
        close (in);
        return -1;
      }
  close (in);
  return len == 0 ? 0 : -1;
}

int
copy_file (const char *from, const char *to, mode_t mode)
{
  int fd = open (to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0)
    {
      printf ("# create %s: %m\n", to);
      return -1;
    }
  int rc = copy_into_fd (from, fd);
  /* The umask does not decide the mode: the situation does.  */
  if (fchmod (fd, mode) != 0)
    rc = -1;
  close (fd);
  return rc;
}

int
write_file (const char *name, const char *text)
{
  FILE *f = fopen (name, "w");
  if (f == NULL)
    {
      printf ("# create %s: %m\n", name);
      return -1;
    }
  fputs (text, f);
  if (fclose (f) != 0)
    {
      printf ("# write %s: %m\n", name);
      return -1;
    }
  return 0;
}

int
make_directory (const char *name, mode_t mode)
{
  if (mkdir (name, mode) != 0 && errno != EEXIST)
    {
      printf ("# mkdir %s: %m\n", name);
      return -1;
    }
  return chmod (name, mode);
}

static int
remove_entry (const char *name, const struct stat *st, int type,
              struct FTW *ftw)
{
  (void) st, (void) type, (void) ftw;
  return remove (name);
}

int
remove_tree (const char *name)
{
  if (nftw (name, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0
      && errno != ENOENT)
    {
      printf ("# removing %s: %m\n", name);
      return -1;
    }
  return 0;
}

int
replace_symlink (const char *target, const char *name)
{
  if ((unlink (name) != 0 && errno != ENOENT) || symlink (target, name) != 0)
    {
      printf ("# symlink %s -> %s: %m\n", name, target);
      return -1;
    }
  return 0;
}

int
copy_directory (const char *from, const char *to, mode_t mode)
{
  DIR *dir = opendir (from);
  if (dir == NULL)
    {
      printf ("# opendir %s: %m\n", from);
      return -1;
    }
  int rc = make_directory (to, 0755);
  struct dirent *e;
  while (rc == 0 && (e = readdir (dir)) != NULL)
    {
      char source[PATH_MAX], target[PATH_MAX], link[PATH_MAX];
      struct stat st;
      snprintf (source, sizeof source, "%s/%s", from, e->d_name);
      snprintf (target, sizeof target, "%s/%s", to, e->d_name);
      if (lstat (source, &st) != 0)
        rc = -1;
      else if (S_ISREG (st.st_mode))
        rc = copy_file (source, target, mode);
      else if (S_ISLNK (st.st_mode))
        {
          ssize_t len = readlink (source, link, sizeof link - 1);
          if (len < 0)
            rc = -1;
          else
            {
              link[len] = '\0';
              rc = replace_symlink (link, target);
            }
        }
    }
  closedir (dir);
  if (rc != 0)
    printf ("# copying %s to %s failed\n", from, to);
  return rc;
}
