/* The image runs the Debian packages the project built: for each package
   the host built (EXPECTED-DIR/packages, "NAME VERSION" lines), dpkg has
   exactly that version installed and none of its files differ from the
   package (dpkg --verify); a file is missing only where the image's dpkg
   configuration excludes it (path-exclude, the image has no
   documentation).  One TAP result per package.  Run as root.
   Usage: test-packages-are-ours EXPECTED-DIR  */
#include <dirent.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "command.h"
#include "tap.h"

#define DPKG_CONFIG "/etc/dpkg/dpkg.cfg.d"

/* Whether dpkg's configuration file NAME has a path-exclude (or, if
   INCLUDE, a path-include) pattern that PATH matches ("option=value" or
   "option value", as dpkg reads them).  */
static bool
config_matches (const char *name, const char *path, bool include)
{
  char file[512], line[1024];
  const char *key = include ? "path-include" : "path-exclude";
  size_t key_len = strlen (key);
  snprintf (file, sizeof file, "%s/%s", DPKG_CONFIG, name);
  FILE *config = fopen (file, "r");
  bool matches = false;
  while (config != NULL && !matches && fgets (line, sizeof line, config))
    {
      line[strcspn (line, "\n")] = '\0';
      if (strncmp (line, key, key_len) != 0
          || strchr ("= \t", line[key_len]) == NULL || line[key_len] == '\0')
        continue;
      const char *pattern = line + key_len + strspn (line + key_len, "= \t");
      matches = fnmatch (pattern, path, 0) == 0;
    }
  if (config != NULL)
    fclose (config);
  return matches;
}

/* Whether the image's dpkg configuration leaves PATH out: a path-exclude
   matches it and no path-include.  */
static bool
excluded (const char *path)
{
  bool exclude = false, include = false;
  DIR *dir = opendir (DPKG_CONFIG);
  struct dirent *entry;
  while (dir != NULL && (entry = readdir (dir)) != NULL)
    if (entry->d_name[0] != '.')
      {
        exclude |= config_matches (entry->d_name, path, false);
        include |= config_matches (entry->d_name, path, true);
      }
  if (dir != NULL)
    closedir (dir);
  return exclude && !include;
}

/* Whether every line of dpkg --verify's OUTPUT is a file the image's
   configuration excludes, missing.  */
static bool
verify_clean (const char *output)
{
  static const char missing[] = "missing     ";
  char path[4096];
  for (const char *line = output; *line != '\0';)
    {
      const char *end = strchrnul (line, '\n');
      size_t len = end - line;
      if (len <= strlen (missing) || strncmp (line, missing, strlen (missing)) != 0
          || len - strlen (missing) >= sizeof path)
        return false;
      memcpy (path, line + strlen (missing), len - strlen (missing));
      path[len - strlen (missing)] = '\0';
      if (!excluded (path))
        return false;
      line = *end == '\n' ? end + 1 : end;
    }
  return true;
}

/* Whether dpkg has PACKAGE installed at VERSION, unchanged.  */
static bool
installed_as_built (const char *package, const char *version)
{
  char output[8192];
  char *const query[] = { "/usr/bin/dpkg-query", "-W", "-f=${Version}",
                          (char *) package, NULL };
  char *const verify[] = { "/usr/bin/dpkg", "--verify", (char *) package,
                           NULL };
  int status = run_command (query, output, sizeof output);
  if (status != 0 || strcmp (output, version) != 0)
    {
      tap_note ("%s: dpkg-query says status %d, version '%s' (built: %s)",
                package, status, output, version);
      return false;
    }
  status = run_command (verify, output, sizeof output);
  if (status != 0 || !verify_clean (output))
    {
      tap_note ("%s: dpkg --verify status %d:", package, status);
      print_comment (output);
      return false;
    }
  tap_note ("%s %s installed, dpkg --verify clean but for excluded files",
            package, version);
  return true;
}

int
main (int argc, char **argv)
{
  char path[4096], package[256], version[256];
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s EXPECTED-DIR\n", argv[0]);
      return 2;
    }
  snprintf (path, sizeof path, "%s/packages", argv[1]);
  FILE *list = fopen (path, "r");
  if (list == NULL)
    {
      printf ("Bail out! %s: %m\n", path);
      return 1;
    }
  int count = 0;
  while (fscanf (list, "%255s %255s", package, version) == 2)
    count++;
  if (count == 0)
    {
      printf ("Bail out! %s lists no package\n", path);
      return 1;
    }
  tap_plan (count);
  rewind (list);
  while (fscanf (list, "%255s %255s", package, version) == 2)
    tap_result (installed_as_built (package, version),
                "%s is the package built from interpreter-patches/",
                package);
  fclose (list);
  return tap_failures () == 0 ? 0 : 1;
}
