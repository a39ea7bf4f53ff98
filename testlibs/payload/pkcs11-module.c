/* The smallest PKCS#11 module p11-kit loads as a managed module: p11-kit
   wraps every managed module's functions in libffi closures, so calling
   this module through p11-kit calls closures (payload/ffi-closures.py).
   C_Initialize, C_Finalize and C_GetInfo work; every other function is
   absent.  The structures are PKCS#11's (version 2.40) for LP64.  */
#include <string.h>

typedef unsigned long ck_rv;
#define CKR_OK 0UL
#define CKR_ARGUMENTS_BAD 7UL
#define CK_FUNCTION_COUNT 68

struct ck_version
{
  unsigned char major;
  unsigned char minor;
};

struct ck_info
{
  struct ck_version cryptoki_version;
  unsigned char manufacturer_id[32];
  unsigned long flags;
  unsigned char library_description[32];
  struct ck_version library_version;
};

struct ck_function_list
{
  struct ck_version version;
  void *functions[CK_FUNCTION_COUNT];
};

static ck_rv
initialize (void *args)
{
  (void) args;
  return CKR_OK;
}

static ck_rv
finalize (void *reserved)
{
  (void) reserved;
  return CKR_OK;
}

/* Blank-padded, as PKCS#11 strings are.  */
static void
fill (unsigned char *field, size_t len, const char *text)
{
  memset (field, ' ', len);
  memcpy (field, text, strlen (text));
}

static ck_rv
get_info (struct ck_info *info)
{
  if (info == NULL)
    return CKR_ARGUMENTS_BAD;
  memset (info, 0, sizeof *info);
  info->cryptoki_version = (struct ck_version) { 2, 40 };
  fill (info->manufacturer_id, sizeof info->manufacturer_id, "checkexec");
  fill (info->library_description, sizeof info->library_description,
        "libffi closure probe");
  return CKR_OK;
}

ck_rv C_GetFunctionList (struct ck_function_list **list);

static struct ck_function_list function_list = {
  .version = { 2, 40 },
  .functions = { (void *) initialize, (void *) finalize, (void *) get_info,
                 (void *) C_GetFunctionList },
};

ck_rv
C_GetFunctionList (struct ck_function_list **list)
{
  if (list == NULL)
    return CKR_ARGUMENTS_BAD;
  *list = &function_list;
  return CKR_OK;
}
