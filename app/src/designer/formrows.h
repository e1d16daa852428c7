#pragma once

#include <QLabel>
#include <QVBoxLayout>
#include <QWidget>

#include "designer/fieldmessages.h"

namespace spindle::gui {

// A field with its message label under it (and an optional hint beside
// it), as one widget for a form row; focus goes to the field, so a label's
// buddy and mnemonic reach it.
inline QWidget* fieldWithMessage(FieldMessages& messages, const QString& path, QWidget* field,
                                 QWidget* besides = nullptr) {
  auto* box = new QWidget;
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  if (besides) {
    auto* row = new QHBoxLayout;
    row->addWidget(field, 1);
    row->addWidget(besides);
    layout->addLayout(row);
  } else {
    layout->addWidget(field);
  }
  field->setParent(box);
  layout->addWidget(messages.add(path, field, box));
  box->setFocusProxy(field);
  return box;
}

// A secondary label: a hint such as the cluster's limit.
inline QLabel* hintLabel(QWidget* parent = nullptr) {
  auto* label = new QLabel(parent);
  label->setForegroundRole(QPalette::PlaceholderText);
  label->setObjectName(QStringLiteral("hint"));
  return label;
}

}  // namespace spindle::gui
