import { useState, type FormEvent } from 'react';
import {
  isReviewFormIncomplete,
  messages,
  ReviewFormSchema,
  type ReviewForm,
} from '@skyport/shared';
import { Modal } from '../../../ui/modal.tsx';
import { RatingInput } from '../../../ui/rating.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { Field, fieldErrors } from '../../../ui/field.tsx';

export interface ReviewModalProps {
  open: boolean;
  onClose: () => void;
  /** Called with a complete review; the modal closes first. */
  onSubmit: (review: ReviewForm) => void;
  /** Called when a field is empty: the spec closes the modal and shows "Oops..." / "Complete all fields!". */
  onIncomplete: () => void;
  defaultName?: string;
}

/** "Give us your feedback!": star rating, "Users name", "Your comment", "Publicar". */
export function ReviewModal({
  open,
  onClose,
  onSubmit,
  onIncomplete,
  defaultName = '',
}: ReviewModalProps) {
  const [rating, setRating] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = {
      name: String(data.get('name') ?? ''),
      comment: String(data.get('comment') ?? ''),
      rating,
    };
    if (isReviewFormIncomplete(input)) {
      onClose();
      onIncomplete();
      return;
    }
    const parsed = ReviewFormSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    onClose();
    onSubmit(parsed.data);
  };
  return (
    <Modal open={open} onClose={onClose} title={messages.reviewModalTitle}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-3" data-testid="review-form">
        <RatingInput name="rating" label={uiLabels.rating} value={rating} onChange={setRating} />
        {errors.rating ? <p className="text-sm text-error">{errors.rating}</p> : null}
        <Field
          label={messages.reviewUsersName}
          name="name"
          defaultValue={defaultName}
          autoComplete="name"
          error={errors.name}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor="review-comment" className="text-sm font-medium">
            {messages.reviewYourComment}
          </label>
          <textarea
            id="review-comment"
            name="comment"
            rows={4}
            className={`textarea w-full ${errors.comment ? 'textarea-error' : ''}`}
            aria-invalid={errors.comment ? true : undefined}
          />
          {errors.comment ? <p className="text-sm text-error">{errors.comment}</p> : null}
        </div>
        <div className="modal-action mt-1">
          <button type="submit" className="btn btn-primary" data-testid="review-submit">
            {messages.reviewSubmit}
          </button>
        </div>
      </form>
    </Modal>
  );
}
