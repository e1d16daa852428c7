#pragma once

// Owners for GSS-API handles and buffers, so every path out of a Kerberos
// exchange releases what the library allocated.

#include <gssapi/gssapi.h>

#include <string>
#include <string_view>

namespace spindle::yarn::ipc {

class GssBuffer {
 public:
  GssBuffer() = default;
  ~GssBuffer() {
    OM_uint32 minor = 0;
    if (buffer_.value) gss_release_buffer(&minor, &buffer_);
  }
  GssBuffer(const GssBuffer&) = delete;
  GssBuffer& operator=(const GssBuffer&) = delete;

  gss_buffer_t get() { return &buffer_; }
  std::string text() const { return std::string(static_cast<const char*>(buffer_.value), buffer_.length); }

 private:
  gss_buffer_desc buffer_{0, nullptr};
};

// A view of our bytes as GSS-API input; GSS-API does not write through it.
inline gss_buffer_desc input_buffer(std::string_view bytes) {
  return gss_buffer_desc{bytes.size(), const_cast<char*>(bytes.data())};
}

class GssName {
 public:
  GssName() = default;
  ~GssName() { reset(); }
  GssName(const GssName&) = delete;
  GssName& operator=(const GssName&) = delete;

  gss_name_t get() const { return name_; }
  gss_name_t* out() {
    reset();
    return &name_;
  }
  void reset() {
    OM_uint32 minor = 0;
    if (name_ != GSS_C_NO_NAME) gss_release_name(&minor, &name_);
  }

 private:
  gss_name_t name_ = GSS_C_NO_NAME;
};

class GssCredential {
 public:
  GssCredential() = default;
  ~GssCredential() {
    OM_uint32 minor = 0;
    if (credential_ != GSS_C_NO_CREDENTIAL) gss_release_cred(&minor, &credential_);
  }
  GssCredential(const GssCredential&) = delete;
  GssCredential& operator=(const GssCredential&) = delete;

  gss_cred_id_t get() const { return credential_; }
  gss_cred_id_t* out() { return &credential_; }

 private:
  gss_cred_id_t credential_ = GSS_C_NO_CREDENTIAL;
};

class GssContext {
 public:
  GssContext() = default;
  ~GssContext() {
    OM_uint32 minor = 0;
    if (context_ != GSS_C_NO_CONTEXT) gss_delete_sec_context(&minor, &context_, GSS_C_NO_BUFFER);
  }
  GssContext(const GssContext&) = delete;
  GssContext& operator=(const GssContext&) = delete;

  gss_ctx_id_t get() const { return context_; }
  gss_ctx_id_t* in_out() { return &context_; }

 private:
  gss_ctx_id_t context_ = GSS_C_NO_CONTEXT;
};

}  // namespace spindle::yarn::ipc
